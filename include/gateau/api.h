/*
 * api.h: GATEAU_API marks what libgateau exports.
 *
 * The library is built with hidden visibility (CMakeLists.txt), so only the
 * functions declared with GATEAU_API in these headers, all named gateau_*,
 * are in the shared library's symbol table; the rest is internal, and a
 * program that loads libgateau.so (a server, Python) sees nothing else.
 * tests/check_exports.sh keeps it so.
 */
#ifndef GATEAU_API_H
#define GATEAU_API_H

#if defined(__GNUC__) || defined(__clang__)
#define GATEAU_API __attribute__((visibility("default")))
#else
#define GATEAU_API
#endif

#endif
