"""Accessible names and descriptions for the window's controls, in the player's language.

A screen reader says a control's accessible name when the focus reaches it, and its
description on demand.  Qt finds some names by itself, and ``unnamed`` accepts those:
a button's text (when it has a letter: "◀" says nothing), a field whose label in a form is
its buddy (``QFormLayout`` does that).  Every other control is named where its screen is
built, by ``name_controls``, which also gives any control with a tooltip that tooltip as
its description (and as its name, for a button with only a symbol on it).
``tests/ui/test_accessible_names.py`` walks every screen with ``unnamed``.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QScrollBar,
    QWidget,
)

__all__ = ["CONTROLS", "name_controls", "unnamed"]

CONTROLS = (
    QAbstractButton,
    QAbstractScrollArea,  # lists, tables, text views: they take the focus
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
)
"""What a player acts on or reads with the focus."""


def name_controls(root: QWidget, names: Mapping[QWidget, tuple[str, str]]) -> None:
    """Give each widget of ``names`` its (name, description), already translated, and
    every control under ``root`` with a tooltip that tooltip as its description."""
    for widget, (text, description) in names.items():
        widget.setAccessibleName(text)
        if description:
            widget.setAccessibleDescription(description)
    for widget in _controls(root):
        tip = widget.toolTip()
        if not tip:
            continue
        if not widget.accessibleDescription():
            widget.setAccessibleDescription(tip)
        if not _named(widget, _buddies(root)):
            widget.setAccessibleName(tip)


def unnamed(root: QWidget) -> list[QWidget]:
    """The controls under ``root`` a screen reader would have no fitting name for."""
    buddies = _buddies(root.window())
    return [widget for widget in _controls(root) if not _named(widget, buddies)]


def _named(widget: QWidget, buddies: set[int]) -> bool:
    if widget.accessibleName().strip() or id(widget) in buddies:
        return True
    return isinstance(widget, QAbstractButton) and any(c.isalpha() for c in widget.text())


def _buddies(root: QWidget) -> set[int]:
    """The widgets a label with text names (a form's fields)."""
    return {
        id(label.buddy())
        for label in root.findChildren(QLabel)
        if label.buddy() is not None and label.text().strip()
    }


def _controls(root: QWidget) -> list[QWidget]:
    return [
        widget
        for widget in (root, *root.findChildren(QWidget))
        if (isinstance(widget, CONTROLS) or _takes_focus(widget))
        and type(widget) is not QScrollArea  # a container: the reader goes to its content
        and not _part_of_another(widget)
    ]


def _takes_focus(widget: QWidget) -> bool:
    """A widget the Tab key reaches (a board's canvas, say) is a control too."""
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def _part_of_another(widget: QWidget) -> bool:
    """A list's scroll bar or header, the field inside a spin box or combo box: the reader
    names their owner."""
    parent = widget.parentWidget()
    while parent is not None:
        if type(parent) is QScrollArea:  # a container: only its scroll bars are its own
            if isinstance(widget, QScrollBar):
                return True
        elif isinstance(parent, (QAbstractSpinBox, QComboBox, QAbstractScrollArea)):
            return True
        parent = parent.parentWidget()
    return False
