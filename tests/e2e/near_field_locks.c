// Two flags of one session, neighbouring bit-fields of one byte, each set
// under its own lock: the byte's read-modify-writes race. The moderator
// comes a little later and first bumps a counter beside the flags (under
// its lock too). Were that store to cut short the connection's watch of
// its flag, the connection would run on, and the moderator's flag store,
// which races with it, would come after the watch. A store under a lock
// beside a watched store under another lock runs unwatched instead
// (cold_near_stores_yield), and the flag store meets the watch. Measured,
// 20 runs each: 20 / 20 (gcc / clang); with cold_near_stores_yield=0,
// 0 / 0.
//
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (set_typing / moderate|moderate / set_typing)$
// EXPECT: ^ set_typing\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*near_field_locks\.c:43$
// EXPECT: ^ moderate\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*near_field_locks\.c:52$
// NOT: race at unknown origin

#include "e2e.h"

struct session {
	char nick[16];
	unsigned typing : 1; /* under room_lock */
	unsigned muted : 1;  /* under mod_lock */
	int strikes;         /* under mod_lock */
};

static struct session session;
static pthread_mutex_t room_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;

static void nap_us(long us)
{
	struct timespec ts = { 0, us * 1000 };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Lines 43 and 52 are asserted above. */
NOINLINE static void set_typing(struct session *s)
{
	pthread_mutex_lock(&room_lock);
	s->typing = 1;
	pthread_mutex_unlock(&room_lock);
}

NOINLINE static void moderate(struct session *s)
{
	pthread_mutex_lock(&mod_lock);
	s->strikes++;
	if (s->strikes >= 1)
		s->muted = 1;
	pthread_mutex_unlock(&mod_lock);
}

static void *connection(void *arg)
{
	nap_us(300); /* the next frame */
	set_typing(arg);
	return NULL;
}

static void *moderator(void *arg)
{
	nap_us(400); /* the filter's verdict */
	moderate(arg);
	return NULL;
}

int main(void)
{
	pthread_t c = e2e_spawn(connection, &session);
	pthread_t m = e2e_spawn(moderator, &session);
	e2e_join(c);
	e2e_join(m);
	printf("%d %d %d\n", session.typing, session.muted, session.strikes);
	return 0;
}
