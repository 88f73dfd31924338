"""Python code tools: parsing, annotations, templates, naming and static
analysis. Nothing here knows about tensors or about any converter."""
