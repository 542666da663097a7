/* collectd-winperf: run a libFuzzer target's function over files, without
 * libFuzzer (gcc builds, make check): each argument is a file or a
 * directory of files. A crash or sanitizer report fails the run.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path, size_t *count) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return -1;
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0, n;
  do {
    if (len == cap) {
      cap = cap ? cap * 2 : 65536;
      uint8_t *p = realloc(buf, cap);
      if (p == NULL) {
        free(buf);
        fclose(f);
        return -1;
      }
      buf = p;
    }
    n = fread(buf + len, 1, cap - len, f);
    len += n;
  } while (n > 0);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  /* Every prefix as well: truncation is the commonest corruption. */
  for (size_t cut = 0; cut < len && cut < 4096; cut += 1 + cut / 64)
    LLVMFuzzerTestOneInput(buf, cut);
  free(buf);
  (*count)++;
  return 0;
}

int main(int argc, char **argv) {
  size_t count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (run_file(argv[i], &count) != 0)
        return 1;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (d == NULL)
      return 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (e->d_name[0] == '.')
        continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      if (run_file(path, &count) != 0) {
        closedir(d);
        return 1;
      }
    }
    closedir(d);
  }
  printf("ran %zu inputs\n", count);
  return count > 0 ? 0 : 1;
}
