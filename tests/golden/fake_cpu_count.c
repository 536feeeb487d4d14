/* Fakes an 8-CPU machine for MindSpore, which refuses more map workers than CPUs:
 *   gcc -shared -fPIC -o /tmp/fake_cpu_count.so tests/golden/fake_cpu_count.c -ldl
 *   LD_PRELOAD=/tmp/fake_cpu_count.so /tmp/ms/bin/python tests/golden/record_random_draws.py
 * (used to record the 3- and 8-worker draw cases of random_draws_mindspore.json on 2 cores). */
#define _GNU_SOURCE
#include <unistd.h>
#include <dlfcn.h>
#include <sched.h>
#include <string.h>
int get_nprocs(void) { return 8; }
int get_nprocs_conf(void) { return 8; }
long sysconf(int name) {
  static long (*real)(int) = 0;
  if (!real) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
  if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) return 8;
  return real(name);
}
int sched_getaffinity(pid_t pid, size_t sz, cpu_set_t *mask) {
  memset(mask, 0, sz);
  for (int i = 0; i < 8; i++) CPU_SET_S(i, sz, mask);
  return 0;
}
