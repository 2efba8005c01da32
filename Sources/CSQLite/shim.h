#ifndef TELLTALE_CSQLITE_SHIM_H
#define TELLTALE_CSQLITE_SHIM_H
// SQLite, for the charts folder's MBTiles files, opened with dlopen(3) when a chart is first asked for rather than
// linked: a gateway whose crew never opens the chart does not map it. Only the header's types and constants are used
// from here; the functions are looked up by Gateway's ChartLibrary (a function-pointer table in a static of a header
// was optimised away by the release build, so the table lives in Swift).
#include <dlfcn.h>
#include <sqlite3.h>
#endif
