"""Where a screen's text does not fit: controls and labels squeezed below the size their
text needs, and laid-out neighbours that overlap.  The size tests and
``scripts/screenshot_sizes.py`` look for them at bigger fonts and 200 % scaling."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)

TEXT_WIDGETS = (QAbstractButton, QAbstractSpinBox, QComboBox, QLabel, QLineEdit)
SLACK = 1  # pixels: rounding


def _where(widget: QWidget) -> str:
    text = getattr(widget, "text", lambda: "")()
    return (
        f"{widget.metaObject().className()} {str(text)[:40]!r} {widget.width()}x{widget.height()}"
    )


def clipped(root: QWidget) -> list[str]:
    """The visible text widgets under ``root`` smaller than their text needs."""
    found = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, TEXT_WIDGETS) or not widget.isVisibleTo(root.window()):
            continue
        if widget.width() <= 0 or widget.height() <= 0 or _inside_a_box(widget):
            continue
        if isinstance(widget, QLabel) and not widget.text().strip():
            continue
        if isinstance(widget, QLabel) and widget.wordWrap():
            need_width = 0
            need_height = widget.heightForWidth(widget.width())
        else:
            hint = widget.minimumSizeHint()
            need_width, need_height = hint.width(), hint.height()
        if widget.width() + SLACK < need_width or widget.height() + SLACK < need_height:
            need = f"needs {need_width}x{need_height}"
            found.append(f"{_where(widget)} {need}")
    return found


def _inside_a_box(widget: QWidget) -> bool:
    """The field of a spin box or combo box: its box is checked."""
    return isinstance(widget.parentWidget(), (QAbstractSpinBox, QComboBox))


def overlapping(root: QWidget) -> list[str]:
    """Visible widgets laid out side by side in one layout whose rectangles overlap."""
    found = []
    for parent in (root, *root.findChildren(QWidget)):
        layout = parent.layout()
        if layout is None:
            continue
        shown = [
            child
            for child in parent.findChildren(QWidget, options=_direct())
            if child.isVisibleTo(root.window()) and layout.indexOf(child) >= 0
        ]
        for index, one in enumerate(shown):
            for other in shown[index + 1 :]:
                common = one.geometry().intersected(other.geometry())
                if common.width() > SLACK and common.height() > SLACK:
                    found.append(f"{_where(one)} over {_where(other)}")
    return found


def _direct():  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    return Qt.FindChildOption.FindDirectChildrenOnly
