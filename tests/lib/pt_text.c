// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "pt_text.h"

bool pt_listed(const char *list, const char *name, char sep)
{
	size_t n = strlen(name);

	for (const char *p = list; n && (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == sep) && (p[n] == sep || !p[n]))
			return true;
	return false;
}
