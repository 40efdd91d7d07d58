#ifndef WX_CGDBM_SHIM_H
#define WX_CGDBM_SHIM_H
#include <gdbm.h>
#include <stdlib.h>
/* malloc_trim: a catalogue writer hands freed memory back between its passes. */
#include <malloc.h>
#endif
