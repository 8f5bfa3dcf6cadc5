/*
 * settings.c - the command line's settings for the whole process, data
 * alone, below every file that reads them: its name in messages (set by
 * each program's main), and what it is asked to do with a command's
 * tables instead of running it (`nqueens --completion COMMAND`, `nqueens
 * --manpage PART`: set by the dispatcher, read by the parser, the engine
 * check and the man page's generator).
 */
#include "cli.h"

const char *cli_program = "nqueens";
int cli_describing, cli_describe_pending;
