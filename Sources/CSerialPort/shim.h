#ifndef TELLTALE_CSERIALPORT_SHIM_H
#define TELLTALE_CSERIALPORT_SHIM_H
#include <libserialport.h>
#endif
