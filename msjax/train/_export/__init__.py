"""``mindspore.export`` / ``load`` and the MindIR helpers (front end; the writers and the reader
live in this package's modules)."""
