"""Layer: summaries (event files for TensorBoard)."""
