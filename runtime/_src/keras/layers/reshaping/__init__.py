"""Reshaping layers (`UpSampling`, `ZeroPadding`, `Cropping` in 1-D to 3-D, `RepeatVector`, `Permute`)."""
