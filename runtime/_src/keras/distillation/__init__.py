"""`keras.distillation`: a student model trained from a teacher's outputs
(`Distiller`) with the losses that compare them (`LogitsDistillation`,
`FeatureDistillation`, and the `DistillationLoss` base to write others)."""
