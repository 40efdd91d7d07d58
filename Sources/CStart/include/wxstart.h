#ifndef WXSTART_H
#define WXSTART_H

/*
 * The command line as the C library's start-up hands it to the program, for the Swift
 * runtime's `CommandLine.arguments` (start.c). Nothing here is called from Swift: linking
 * this target into `wx` is what it takes.
 */

#endif
