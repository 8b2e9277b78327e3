/* RACE: c08_last_error.c:36 (write) vs c08_last_error.c:57 (write) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tiny key/value library ---- */
enum { KV_OK = 0, KV_ESYNTAX = 1, KV_ENOKEY = 2, KV_ENOSPC = 3 };

static int kv_errno; /* last error, like errno but not per-thread */

#define KV_MAX 32
struct kv {
    char key[KV_MAX][24];
    char val[KV_MAX][40];
    int n;
};

static const char *kv_strerror(int e)
{
    static const char *msg[] = { "ok", "syntax error", "no such key", "table full" };
    return (e >= 0 && e <= KV_ENOSPC) ? msg[e] : "?";
}

static int kv_parse(struct kv *kv, const char *text)
{
    int lineno = 0;
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        lineno++;
        if (n && text[0] != '#') {
            const char *eq = memchr(text, '=', n);
            if (!eq || eq == text || (size_t)(eq - text) >= 24 || n - (size_t)(eq - text) > 40) {
                kv_errno = KV_ESYNTAX;
                return -lineno;
            }
            if (kv->n == KV_MAX)
                break; /* silently truncated, see TODO */
            memcpy(kv->key[kv->n], text, (size_t)(eq - text));
            kv->key[kv->n][eq - text] = '\0';
            memcpy(kv->val[kv->n], eq + 1, n - (size_t)(eq - text) - 1);
            kv->val[kv->n][n - (size_t)(eq - text) - 1] = '\0';
            kv->n++;
        }
        text += n + (nl ? 1 : 0);
    }
    return 0;
}

static const char *kv_get(const struct kv *kv, const char *key)
{
    for (int i = 0; i < kv->n; i++)
        if (strcmp(kv->key[i], key) == 0)
            return kv->val[i];
    kv_errno = KV_ENOKEY;
    return NULL;
}

/* ---- application ---- */
static struct kv base, plugins;
static int plugin_status, resolve_status;

static void *load_base(void *arg)
{
    (void)arg;
    kv_parse(&base, "listen=0.0.0.0:8080\nworkers=4\nroot=/srv/www\nindex=index.html\n");
    return NULL;
}

static void *load_plugins(void *arg)
{
    (void)arg;
    plugin_status = kv_parse(&plugins, "# plugins\nauth=ldap\ncache=mem\ngzip level 6\nlog=json\n");
    return NULL;
}

static void *resolve_paths(void *arg)
{
    static const char *needed[] = { "root", "index", "listen", "errdoc" };
    char *out = arg;
    size_t off = 0;
    for (int i = 0; i < 4; i++) {
        const char *v = kv_get(&base, needed[i]);
        if (!v) {
            resolve_status = -1;
            continue;
        }
        off += (size_t)snprintf(out + off, 256 - off, "%s%s", off ? ";" : "", v);
    }
    return NULL;
}

int main(void)
{
    pthread_t tb, tp, tr;
    char resolved[256] = "";

    pthread_create(&tp, NULL, load_plugins, NULL);
    pthread_create(&tb, NULL, load_base, NULL);
    pthread_join(tb, NULL); /* paths only need the base config */
    pthread_create(&tr, NULL, resolve_paths, resolved);
    pthread_join(tr, NULL);
    pthread_join(tp, NULL);

    printf("base: %d keys, resolved: %s\n", base.n, resolved);
    if (plugin_status < 0)
        printf("plugins.conf:%d: load failed\n", -plugin_status);
    if (plugin_status < 0 || resolve_status < 0)
        printf("last error: %s\n", kv_strerror(kv_errno));
    return 0;
}
