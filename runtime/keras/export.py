"""`keras.export`: `ExportArchive`, which writes a SavedModel for inference
(runtime/_src/keras/export)."""

from runtime._src.keras.export.saved_model import ExportArchive

__all__ = ["ExportArchive"]
