/* SPDX-License-Identifier: Apache-2.0 */
/* A global of a shared library, raced on by location_shared.c. */
long lib_global;
