// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module that does not build. vm/check must fail the
 * kernel with the build as its reason, never show an earlier run's result.
 */
#error "harness self-test: this build failure is deliberate"
