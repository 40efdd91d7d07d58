#ifndef WX_CGDBM_SHIM_H
#define WX_CGDBM_SHIM_H
#include <gdbm.h>
#include <stdlib.h>
#endif
