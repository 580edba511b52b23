"""PySide6 screens and board renderers, and the ``palabre`` entry point."""
