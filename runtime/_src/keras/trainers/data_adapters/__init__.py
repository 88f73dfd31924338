"""What `fit` takes as data: datasets, generators and `PyDataset`."""
