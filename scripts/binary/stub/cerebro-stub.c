// The outer part of the single executable: a small native program followed by the real executable (Node with the
// SEA blob) compressed in frames (LZ4 or zstd: stub.mjs says which and why), and a fixed trailer. Node's own binary
// is 108 MB stripped and cannot be made smaller without rebuilding Node; compressed it is about half of that. On the first start of a build the runtime is
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
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <lz4frame.h>
#include <zstd.h>

// Trailer at the very end of the file: magic, payload offset and size, decompressed size, the size of the deferred
// parts placed between the payload and the trailer (the runtime unpacks them itself, on first use:
// deferred-parts.cjs), build id (16 hex).
#define MAGIC "CRBSTUB2"
struct trailer {
  char magic[8];
  uint64_t payload_offset;
  uint64_t payload_size;
  uint64_t runtime_size;
  uint64_t parts_size;
  char build_id[16];
};
_Static_assert(sizeof(struct trailer) == 56, "the trailer deferred-parts.cjs and stub.mjs read");

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

static void pwrite_all(int fd, const void *buf, size_t size, uint64_t at, const char *path) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = pwrite(fd, (const char *)buf + done, size - done, (off_t)(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("no se pudo escribir", path);
    done += (size_t)n;
  }
}

// The runtime is compressed as several independent frames (stub.mjs, RUNTIME_FRAMES), each holding one stretch of
// the file: threads decompress them at once, one CPU each, and write each stretch at its place. A frame is LZ4 (the
// default: it decompresses two to three times faster than zstd, for a bigger file) or zstd, told by its magic number.
#define MAX_FRAMES 64
#define ZSTD_MAGIC 0xFD2FB528u
#define LZ4_MAGIC 0x184D2204u

struct frame {
  const unsigned char *src;
  size_t src_size;
  uint64_t at;
  uint64_t size;
  int lz4;
};

struct job {
  struct frame frames[MAX_FRAMES];
  int count;
  int next; // the next frame a thread takes (atomic)
  int out;
  const char *tmp;
};

static void damaged(const char *tmp, const char *why) {
  fprintf(stderr, "cerebro: el ejecutable está dañado (%s); vuelve a descargarlo\n", why);
  unlink(tmp);
  exit(70);
}

// Where a frame's decompressed bytes go: its stretch of the runtime file.
struct sink {
  const struct frame *frame;
  int out;
  const char *tmp;
  uint64_t written, flushed;
};

static void emit(struct sink *s, const void *buf, size_t n) {
  if (s->written + n > s->frame->size) damaged(s->tmp, "un tramo es más largo de lo que dice");
  pwrite_all(s->out, buf, n, s->frame->at + s->written, s->tmp);
  s->written += n;
  // Start writing each finished stretch to disk while the rest decompresses, so the fsync before the rename waits
  // for the last stretches only, not the whole runtime. Only a hint: errors surface at fsync.
  if (s->written - s->flushed >= WRITEBACK_STRETCH) {
    sync_file_range(s->out, (off_t)(s->frame->at + s->flushed), (off_t)(s->written - s->flushed), SYNC_FILE_RANGE_WRITE);
    s->flushed = s->written;
  }
}

static void zstd_frame(struct sink *s, ZSTD_DCtx *dctx, char *buf, size_t cap) {
  ZSTD_inBuffer input = {s->frame->src, s->frame->src_size, 0};
  size_t hint = 1;
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
  while (hint != 0) {
    ZSTD_outBuffer output = {buf, cap, 0};
    hint = ZSTD_decompressStream(dctx, &output, &input);
    if (ZSTD_isError(hint)) damaged(s->tmp, ZSTD_getErrorName(hint));
    emit(s, buf, output.pos);
    if (hint != 0 && input.pos == input.size && output.pos < output.size) damaged(s->tmp, "un tramo está incompleto");
  }
}

static void lz4_frame(struct sink *s, LZ4F_dctx *dctx, char *buf, size_t cap) {
  size_t in_at = 0, hint = 1;
  while (hint != 0) {
    size_t produced = cap, consumed = s->frame->src_size - in_at;
    hint = LZ4F_decompress(dctx, buf, &produced, s->frame->src + in_at, &consumed, NULL);
    if (LZ4F_isError(hint)) damaged(s->tmp, LZ4F_getErrorName(hint));
    in_at += consumed;
    emit(s, buf, produced);
    if (hint != 0 && in_at == s->frame->src_size && produced == 0) damaged(s->tmp, "un tramo está incompleto");
  }
}

static void *decompress_frames(void *arg) {
  struct job *job = arg;
  size_t cap = ZSTD_DStreamOutSize();
  ZSTD_DCtx *zstd = ZSTD_createDCtx();
  LZ4F_dctx *lz4 = NULL;
  char *buf = malloc(cap);
  if (!zstd || !buf || LZ4F_isError(LZ4F_createDecompressionContext(&lz4, LZ4F_VERSION))) fail("sin memoria", NULL);
  // zstd frames are compressed with a long window (--long=27): allow it.
  ZSTD_DCtx_setParameter(zstd, ZSTD_d_windowLogMax, 27);
  for (int i; (i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->count;) {
    struct sink s = {&job->frames[i], job->out, job->tmp, 0, 0};
    if (s.frame->lz4)
      lz4_frame(&s, lz4, buf, cap);
    else
      zstd_frame(&s, zstd, buf, cap);
    if (s.written != s.frame->size) damaged(job->tmp, "un tramo es más corto de lo que dice");
  }
  ZSTD_freeDCtx(zstd);
  LZ4F_freeDecompressionContext(lz4);
  free(buf);
  return NULL;
}

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

// The length of the LZ4 frame at `p` (at most `left` bytes), walking its blocks, and its decompressed size (the
// build writes it: --content-size); 0 when the frame is malformed or cut short.
static size_t lz4_frame_size(const unsigned char *p, size_t left, uint64_t *content) {
  if (left < 15) return 0;
  unsigned flags = p[4];
  if ((flags >> 6) != 1 || !(flags & 0x08)) return 0; // version 01, with its content size
  *content = (uint64_t)le32(p + 6) | (uint64_t)le32(p + 10) << 32;
  size_t at = 14 + ((flags & 0x01) ? 4 : 0) + 1; // dictionary id, header checksum
  for (;;) {
    if (at + 4 > left) return 0;
    uint32_t block = le32(p + at);
    at += 4;
    if (block == 0) break;
    at += (block & 0x7FFFFFFFu) + ((flags & 0x10) ? 4 : 0);
  }
  at += (flags & 0x04) ? 4 : 0;
  return at <= left ? at : 0;
}

// Finds the frames of the payload: each one's place, length and decompressed size.
static void find_frames(struct job *job, const unsigned char *at, size_t left, const char *tmp) {
  uint64_t total = 0;
  while (left > 0) {
    if (job->count == MAX_FRAMES || left < 4) damaged(tmp, "tramos de más");
    struct frame f = {at, 0, total, 0, le32(at) == LZ4_MAGIC};
    if (f.lz4) {
      f.src_size = lz4_frame_size(at, left, &f.size);
      if (f.src_size == 0) damaged(tmp, "tramo LZ4 incompleto");
    } else {
      if (le32(at) != ZSTD_MAGIC) damaged(tmp, "tramo desconocido");
      f.src_size = ZSTD_findFrameCompressedSize(at, left);
      if (ZSTD_isError(f.src_size)) damaged(tmp, ZSTD_getErrorName(f.src_size));
      unsigned long long content = ZSTD_getFrameContentSize(at, left);
      if (content == ZSTD_CONTENTSIZE_UNKNOWN || content == ZSTD_CONTENTSIZE_ERROR) damaged(tmp, "tramo sin tamaño");
      f.size = content;
    }
    job->frames[job->count++] = f;
    total += f.size;
    at += f.src_size;
    left -= f.src_size;
  }
}

// CPUs this process may run on (a container or systemd's CPUAffinity may allow fewer than the machine has).
static int usable_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

// Decompresses the payload into `tmp`, then renames it to `target` (another process may win the race: fine, the
// file is the same build).
static void unpack_runtime(int self, off_t self_size, const struct trailer *t, const char *tmp, const char *target) {
  const unsigned char *file = mmap(NULL, (size_t)self_size, PROT_READ, MAP_PRIVATE, self, 0);
  if (file == MAP_FAILED) fail("no se pudo leer el ejecutable", NULL);
  static struct job job;
  job.tmp = tmp;
  const unsigned char *at = file + t->payload_offset;
  size_t left = (size_t)t->payload_size;
  madvise((void *)((uintptr_t)at & ~(uintptr_t)4095), left + ((uintptr_t)at & 4095), MADV_WILLNEED);
  find_frames(&job, at, left, tmp);
  uint64_t total = 0;
  for (int i = 0; i < job.count; i++) total += job.frames[i].size;
  if (total != t->runtime_size) {
    fprintf(stderr, "cerebro: el ejecutable está incompleto; vuelve a descargarlo\n");
    exit(70);
  }

  job.out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
  if (job.out < 0) fail("no se pudo crear", tmp);
  pthread_t threads[MAX_FRAMES];
  int helpers = usable_cpus() - 1;
  if (helpers > job.count - 1) helpers = job.count - 1;
  int started = 0;
  // A thread that cannot start is no error: this one does its share.
  while (started < helpers && pthread_create(&threads[started], NULL, decompress_frames, &job) == 0) started++;
  decompress_frames(&job);
  for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
  munmap((void *)file, (size_t)self_size);
  if (fsync(job.out) != 0 || close(job.out) != 0) fail("no se pudo escribir", tmp);
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
      t.payload_offset + t.payload_size + t.parts_size + sizeof t != (uint64_t)st.st_size) {
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
  if (stat(target, &have) != 0 || (uint64_t)have.st_size != t.runtime_size)
    unpack_runtime(self, st.st_size, &t, tmp, target);
  close(self);
  if (setenv("CEREBRO_EXECUTABLE", self_path, 1) != 0) fail("no se pudo preparar el entorno", NULL);
  execv(target, argv);
  unlink(mark);
  fail("no se pudo ejecutar", target);
  return 70;
}
