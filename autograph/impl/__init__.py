"""The conversion machinery: the converter pipeline, compiling generated code,
the cache, and the public API (`to_code`, `to_graph`, `convert`, `report`)."""
