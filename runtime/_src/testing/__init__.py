"""`tf.test`: TestCase (test_case.py) and the module's functions (test_util.py)."""
