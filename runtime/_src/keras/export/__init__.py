"""`keras.export`: SavedModel artifacts for inference (`ExportArchive`,
`Model.export`) and `keras.layers.TFSMLayer`, which reloads one."""
