"""`keras.utils`: naming, progress bars, file and dataset helpers, `Config`, model summaries."""
