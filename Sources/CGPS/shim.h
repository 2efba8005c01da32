#ifndef TELLTALE_CGPS_SHIM_H
#define TELLTALE_CGPS_SHIM_H
#include <gps.h>
#endif
