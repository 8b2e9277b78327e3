/*
 * chat_member_flags.c - presence and moderation flags of a chat room member.
 *
 * `typing` is guarded by the room lock (connection thread), `muted` by the
 * moderation lock (moderator thread).  The two are neighbouring one-bit
 * bitfields in the same byte, so each store is a read-modify-write of the
 * other's bits, and the two locks do not order them.
 *
 * Racing pair:
 *   RW :45 m->typing = 1 in on_typing_event() (room lock held) /
 *   RW :55 m->muted = 1 in moderate() (mod lock held)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct member {
    char nick[16];
    unsigned typing : 1;     /* guarded by room.lock */
    unsigned muted : 1;      /* guarded by mod_lock */
    unsigned away : 1;       /* guarded by room.lock */
    int strikes;             /* guarded by mod_lock */
};

struct room {
    pthread_mutex_t lock;
    struct member members[2];
    int events;              /* guarded by lock */
};

static struct room room = { .lock = PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static void on_typing_event(struct member *m)
{
    pthread_mutex_lock(&room.lock);
    m->typing = 1;
    room.events++;
    pthread_mutex_unlock(&room.lock);
}

static void moderate(struct member *m)
{
    pthread_mutex_lock(&mod_lock);
    m->strikes++;
    if (m->strikes >= 1)
        m->muted = 1;
    pthread_mutex_unlock(&mod_lock);
}

static void *connection_main(void *arg)
{
    struct member *m = arg;

    sleep_us(300);                       /* read the next frame from the socket */
    on_typing_event(m);
    return NULL;
}

static void *moderator_main(void *arg)
{
    struct member *m = arg;

    sleep_us(400);                       /* spam filter verdict arrives */
    moderate(m);
    return NULL;
}

int main(void)
{
    pthread_t conn, mod;
    struct member *m = &room.members[1];

    strcpy(room.members[0].nick, "ada");
    strcpy(room.members[1].nick, "mallory");

    if (pthread_create(&conn, NULL, connection_main, m) != 0)
        return 1;
    if (pthread_create(&mod, NULL, moderator_main, m) != 0)
        return 1;
    pthread_join(conn, NULL);
    pthread_join(mod, NULL);
    printf("%s: strikes=%d events=%d\n", m->nick, m->strikes, room.events);
    return 0;
}
