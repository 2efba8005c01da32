#ifndef TELLTALE_CMOSQUITTO_SHIM_H
#define TELLTALE_CMOSQUITTO_SHIM_H
// libmosquitto, for the uplink to a shore broker, opened with dlopen(3) when [uplink] is configured rather than linked:
// a gateway with no uplink does not map it (nor OpenSSL behind it). Only the header's types and constants are used from
// here (struct mosquitto_message's layout, the error numbers); the functions are looked up by Gateway's Mosquitto.
#include <stdbool.h>
#include <mosquitto.h>
#endif
