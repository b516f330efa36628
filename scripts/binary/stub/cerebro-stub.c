// The outer part of the single executable: a small native program followed by the real executable (Node with the
// SEA blob) compressed with zstd, and a fixed trailer. Node's own binary is 108 MB stripped and cannot be made
// smaller without rebuilding Node; compressed it is a third of that. On the first start of a build the runtime is
// decompressed once into the cache folder the launcher already uses (`<cache>/<build id>.runtime`, written under a
// temporary name and renamed, so a crash never leaves half a file); every start then replaces this process with it
// (execv: same pid, same arguments, same descriptors), so signals, exit codes and systemd see one process.
//
// Before it looks at the cache, the stub writes the launcher's in-use mark for this build and pid
// (`<cache>/.en-uso/<build id>-<pid>`): the pid survives execv, the launcher then owns the mark and removes it at exit,
// and a start of another build never removes a runtime a live process is about to run.
//
// CEREBRO_EXECUTABLE is set to this file's path: messages name the executable the person ran, not the cached runtime.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zstd.h>

// Trailer at the very end of the file: magic, payload offset and size, decompressed size, build id (16 hex).
#define MAGIC "CRBSTUB1"
struct trailer {
  char magic[8];
  uint64_t payload_offset;
  uint64_t payload_size;
  uint64_t runtime_size;
  char build_id[16];
};

// Bytes decompressed between two requests to start writing them out (see unpack_runtime).
#define WRITEBACK_STRETCH (8u << 20)

static void fail(const char *what, const char *path) {
  fprintf(stderr, "cerebro: %s%s%s: %s\n", what, path ? " " : "", path ? path : "", strerror(errno));
  exit(70);
}

// snprintf that refuses a path it would cut short.
__attribute__((format(printf, 3, 4))) static void path_of(char *out, size_t size, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(out, size, fmt, args);
  va_end(args);
  if (n < 0 || (size_t)n >= size) {
    errno = ENAMETOOLONG;
    fail("ruta demasiado larga en la carpeta de caché", NULL);
  }
}

static int is_hex16(const char *s) {
  for (int i = 0; i < 16; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
  return 1;
}

// Same rules as cacheRoot() in launcher.cjs: CEREBRO_CACHE_DIR, systemd's CACHE_DIRECTORY (first entry),
// XDG_CACHE_HOME/cerebro, ~/.cache/cerebro.
static void cache_root(char *out, size_t size) {
  const char *own = getenv("CEREBRO_CACHE_DIR");
  const char *systemd = getenv("CACHE_DIRECTORY");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (own && *own)
    path_of(out, size, "%s", own);
  else if (systemd && *systemd)
    path_of(out, size, "%.*s", (int)strcspn(systemd, ":"), systemd);
  else if (xdg && *xdg)
    path_of(out, size, "%s/cerebro", xdg);
  else
    path_of(out, size, "%s/.cache/cerebro", home && *home ? home : "/tmp");
}

static void mkdirs(const char *path) {
  char buf[PATH_MAX];
  path_of(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) fail("no se pudo crear", buf);
    *p = '/';
  }
  if (mkdir(buf, 0700) != 0 && errno != EEXIST) fail("no se pudo crear", buf);
}

static void read_at(int fd, void *buf, size_t size, off_t at) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(fd, (char *)buf + done, size - done, at + (off_t)done);
    if (n <= 0) {
      if (n == 0) errno = EIO;
      fail("no se pudo leer el ejecutable", NULL);
    }
    done += (size_t)n;
  }
}

static void write_all(int fd, const void *buf, size_t size, const char *path) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, (const char *)buf + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("no se pudo escribir", path);
    done += (size_t)n;
  }
}

// Decompresses the payload into `tmp`, then renames it to `target` (another process may win the race: fine, the
// file is the same build).
static void unpack_runtime(int self, const struct trailer *t, const char *tmp, const char *target) {
  int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
  if (out < 0) fail("no se pudo crear", tmp);
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  // The payload is compressed with a long window (--long=27): allow it.
  ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 27);
  size_t in_cap = ZSTD_DStreamInSize(), out_cap = ZSTD_DStreamOutSize();
  char *in_buf = malloc(in_cap), *out_buf = malloc(out_cap);
  if (!dctx || !in_buf || !out_buf) fail("sin memoria", NULL);
  uint64_t read_so_far = 0, written = 0, flushed = 0;
  size_t last = 1;
  while (read_so_far < t->payload_size) {
    size_t chunk = t->payload_size - read_so_far < in_cap ? (size_t)(t->payload_size - read_so_far) : in_cap;
    read_at(self, in_buf, chunk, (off_t)(t->payload_offset + read_so_far));
    read_so_far += chunk;
    ZSTD_inBuffer input = {in_buf, chunk, 0};
    while (input.pos < input.size) {
      ZSTD_outBuffer output = {out_buf, out_cap, 0};
      last = ZSTD_decompressStream(dctx, &output, &input);
      if (ZSTD_isError(last)) {
        fprintf(stderr, "cerebro: el ejecutable está dañado (%s); vuelve a descargarlo\n", ZSTD_getErrorName(last));
        unlink(tmp);
        exit(70);
      }
      write_all(out, out_buf, output.pos, tmp);
      written += output.pos;
      // Start writing each finished stretch to disk while the rest decompresses, so the fsync below (needed before
      // the rename) waits for the last stretch only, not the whole runtime. Only a hint: errors surface at fsync.
      if (written - flushed >= WRITEBACK_STRETCH) {
        sync_file_range(out, (off_t)flushed, (off_t)(written - flushed), SYNC_FILE_RANGE_WRITE);
        flushed = written;
      }
    }
  }
  if (last != 0 || written != t->runtime_size) {
    fprintf(stderr, "cerebro: el ejecutable está incompleto; vuelve a descargarlo\n");
    unlink(tmp);
    exit(70);
  }
  ZSTD_freeDCtx(dctx);
  free(in_buf);
  free(out_buf);
  if (fsync(out) != 0 || close(out) != 0) fail("no se pudo escribir", tmp);
  if (rename(tmp, target) != 0) fail("no se pudo renombrar", tmp);
}

int main(int argc, char **argv) {
  (void)argc;
  char self_path[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
  if (len < 0) fail("no se pudo localizar el ejecutable", NULL);
  self_path[len] = '\0';
  int self = open(self_path, O_RDONLY | O_CLOEXEC);
  if (self < 0) fail("no se pudo abrir", self_path);
  struct stat st;
  if (fstat(self, &st) != 0) fail("no se pudo leer", self_path);
  struct trailer t;
  if ((size_t)st.st_size < sizeof t) {
    errno = EINVAL;
    fail("ejecutable sin contenido", self_path);
  }
  read_at(self, &t, sizeof t, st.st_size - (off_t)sizeof t);
  if (memcmp(t.magic, MAGIC, 8) != 0 || !is_hex16(t.build_id) ||
      t.payload_offset + t.payload_size + sizeof t != (uint64_t)st.st_size) {
    fprintf(stderr, "cerebro: %s no es un ejecutable de Cerebro completo; vuelve a descargarlo\n", self_path);
    return 70;
  }

  char root[PATH_MAX], marks[PATH_MAX], mark[PATH_MAX], target[PATH_MAX], tmp[PATH_MAX];
  char id[17];
  memcpy(id, t.build_id, 16);
  id[16] = '\0';
  cache_root(root, sizeof root);
  path_of(marks, sizeof marks, "%s/.en-uso", root);
  mkdirs(marks);
  path_of(mark, sizeof mark, "%s/%s-%ld", marks, id, (long)getpid());
  int m = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (m < 0) fail("no se pudo crear", mark);
  close(m);
  path_of(target, sizeof target, "%s/%s.runtime", root, id);
  path_of(tmp, sizeof tmp, "%s/.tmp-%s-%ld", root, id, (long)getpid());

  struct stat have;
  if (stat(target, &have) != 0 || (uint64_t)have.st_size != t.runtime_size) unpack_runtime(self, &t, tmp, target);
  close(self);
  if (setenv("CEREBRO_EXECUTABLE", self_path, 1) != 0) fail("no se pudo preparar el entorno", NULL);
  execv(target, argv);
  unlink(mark);
  fail("no se pudo ejecutar", target);
  return 70;
}
