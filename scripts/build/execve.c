// A Node-API addon of one function for the single executable's launcher (sea-launcher.cjs):
// execve(file, argv, env) replaces the running process with a new image, the way a shell's `exec` does.
// Node 20 has no process.execve, and glibc reads MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_ only when a
// process starts: the launcher sets them (and NODE_OPTIONS) and executes itself again under the same
// process id, so no parent stays behind to wait. On success it does not return; on failure it throws.
//
// Built by scripts/build/package.mjs with the system's C compiler (`cc -shared -fPIC`). The few Node-API
// declarations it needs are written out below (Node-API is a stable C ABI), so no Node headers are needed.
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status; // napi_ok is 0
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);

extern napi_status napi_get_cb_info(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv,
                                    napi_value *this_arg, void **data);
extern napi_status napi_get_value_string_utf8(napi_env env, napi_value value, char *buf, size_t bufsize,
                                              size_t *result);
extern napi_status napi_get_array_length(napi_env env, napi_value value, uint32_t *result);
extern napi_status napi_get_element(napi_env env, napi_value object, uint32_t index, napi_value *result);
extern napi_status napi_create_function(napi_env env, const char *utf8name, size_t length, napi_callback cb,
                                        void *data, napi_value *result);
extern napi_status napi_set_named_property(napi_env env, napi_value object, const char *utf8name,
                                           napi_value value);
extern napi_status napi_throw_error(napi_env env, const char *code, const char *msg);

/** A JavaScript string as a new C string, or NULL when it is not a string. */
static char *string_of(napi_env env, napi_value value) {
  size_t length = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != 0) return NULL;
  char *text = malloc(length + 1);
  if (text == NULL) return NULL;
  if (napi_get_value_string_utf8(env, value, text, length + 1, &length) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

static void free_list(char **list) {
  if (list == NULL) return;
  for (char **item = list; *item != NULL; item++) free(*item);
  free(list);
}

/** A JavaScript array of strings as a NULL-terminated C array, or NULL. */
static char **list_of(napi_env env, napi_value array) {
  uint32_t length = 0;
  if (napi_get_array_length(env, array, &length) != 0) return NULL;
  char **list = calloc((size_t)length + 1, sizeof(char *));
  if (list == NULL) return NULL;
  for (uint32_t i = 0; i < length; i++) {
    napi_value item;
    if (napi_get_element(env, array, i, &item) != 0 || (list[i] = string_of(env, item)) == NULL) {
      free_list(list);
      return NULL;
    }
  }
  return list;
}

static napi_value do_execve(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != 0 || argc != 3) {
    napi_throw_error(env, NULL, "execve(file, argv, env): three arguments expected");
    return NULL;
  }
  char *file = string_of(env, args[0]);
  char **argv = list_of(env, args[1]);
  char **envp = list_of(env, args[2]);
  if (file == NULL || argv == NULL || envp == NULL) {
    napi_throw_error(env, NULL, "execve(file, argv, env): a string and two arrays of strings expected");
  } else {
    // Node marks every descriptor close-on-exec at start-up, standard input and output included: the new
    // image gets them back, as a shell's `exec` would pass them on.
    int flags[3];
    for (int fd = 0; fd <= 2; fd++) {
      flags[fd] = fcntl(fd, F_GETFD);
      if (flags[fd] >= 0 && (flags[fd] & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags[fd] & ~FD_CLOEXEC);
    }
    execve(file, argv, envp);
    int error = errno; // only reached when execve failed: as it was, and the reason
    for (int fd = 0; fd <= 2; fd++)
      if (flags[fd] >= 0) fcntl(fd, F_SETFD, flags[fd]);
    napi_throw_error(env, NULL, strerror(error));
  }
  free(file);
  free_list(argv);
  free_list(envp);
  return NULL;
}

napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "execve", (size_t)-1, do_execve, NULL, &fn) == 0)
    napi_set_named_property(env, exports, "execve", fn);
  return exports;
}
