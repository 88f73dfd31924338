"""`keras.dtype_policies`: the dtypes a layer computes in and keeps its weights in."""
