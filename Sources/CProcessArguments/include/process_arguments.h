// No declarations: the target's one job is a link-time definition (process_arguments.c).
