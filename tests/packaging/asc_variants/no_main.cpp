// VARIANT=functions: the program's main comes from the ASC library (op.asc).
