"""`tf.keras.visualization`: `draw_segmentation_masks`
(runtime/_src/keras/visualization/). Keras's bounding-box drawing (OpenCV) and its
plotting galleries (matplotlib) are absent."""

from runtime._src.keras.visualization.draw_segmentation_masks import draw_segmentation_masks

__all__ = ["draw_segmentation_masks"]
