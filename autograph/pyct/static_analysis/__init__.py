"""Static analyses over gast trees: activity (names read and written),
liveness and definedness (a simple form of reaching definitions). They run on
structured code: by the time they run, break/continue/return have been
rewritten into flags, so every statement falls through to the next one."""
