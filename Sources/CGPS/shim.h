#ifndef TELLTALE_CGPS_SHIM_H
#define TELLTALE_CGPS_SHIM_H
// gpsd's client library is opened with dlopen(3) when a gpsd input first connects rather than linked (Platform's
// DynamicLibrary, in GPSDClient.swift): libgps brings libstdc++, libsystemd, libdbus and theirs (1.7 MB resident on a
// Pi), which a gateway without a gpsd input should not carry. Its header still gives the layout of struct gps_data_t
// and the WATCH_ and _SET constants.
#include <gps.h>
#endif
