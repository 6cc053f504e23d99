/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text as the tests read it from knobs and kernel parameters. */
#ifndef PT_TEXT_H
#define PT_TEXT_H

#include <stdbool.h>

/* Is @name one whole entry of @list, whose entries @sep separates? */
bool pt_listed(const char *list, const char *name, char sep);

#endif
