"""Keras 2's preprocessing tools that tf.keras (TF 2.21, Keras 3.15) keeps:
`tf.keras.preprocessing.text`, `.sequence`'s generators and `.image`'s
ImageDataGenerator."""
