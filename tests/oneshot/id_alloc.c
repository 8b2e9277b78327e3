// Bug: an id allocator called outside the lock.  Sessions are inserted in
// the table under tab->lock, but the id is allocated first, without it:
//
//     s->id = tab->next_id++;
//
// Two acceptor threads opening sessions at the same moment can get the
// same id.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in alloc_session_id / alloc_session_id$
// EXPECT: ^(read|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^(read|read-write) to 0x => ^ alloc_session_id\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*id_alloc\.c:42$
// EXPECT-FRAME: ^(write|read-write) to 0x => ^ alloc_session_id\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*id_alloc\.c:42$

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "oneshot.h"

#define NBUCKETS 64

struct session {
	unsigned int id;
	int fd;
	struct session *next;
};

struct session_table {
	pthread_mutex_t lock;
	unsigned int next_id;
	unsigned int count;
	struct session *bucket[NBUCKETS];
};

NOINLINE unsigned int alloc_session_id(struct session_table *tab)
{
#ifdef FIXED
	return __atomic_fetch_add(&tab->next_id, 1, __ATOMIC_RELAXED);
#else
	return tab->next_id++;		/* racy read-modify-write */
#endif
}

static struct session *open_session(struct session_table *tab, int fd)
{
	struct session *s = malloc(sizeof(*s));

	if (!s)
		return NULL;
	s->fd = fd;
	s->id = alloc_session_id(tab);
	pthread_mutex_lock(&tab->lock);
	s->next = tab->bucket[s->id % NBUCKETS];
	tab->bucket[s->id % NBUCKETS] = s;
	tab->count++;
	pthread_mutex_unlock(&tab->lock);
	return s;
}

struct acceptor {
	pthread_t tid;
	struct session_table *tab;
	int first_fd;
};

static void *acceptor_main(void *arg)
{
	struct acceptor *a = arg;
	int i;

	for (i = 0; i < 60; i++) {
		spin_for_us(40);	/* accept() and the TLS handshake */
		open_session(a->tab, a->first_fd + i);
	}
	return NULL;
}

/* Count ids that appear more than once. */
static int count_duplicates(struct session_table *tab)
{
	int b, dups = 0;

	for (b = 0; b < NBUCKETS; b++) {
		struct session *s, *t;

		for (s = tab->bucket[b]; s; s = s->next)
			for (t = s->next; t; t = t->next)
				dups += s->id == t->id;
	}
	return dups;
}

int main(void)
{
	static struct session_table tab = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct acceptor a[2] = { { .tab = &tab, .first_fd = 100 },
				 { .tab = &tab, .first_fd = 200 } };
	int b, i;

	for (i = 0; i < 2; i++)
		pthread_create(&a[i].tid, NULL, acceptor_main, &a[i]);
	for (i = 0; i < 2; i++)
		pthread_join(a[i].tid, NULL);
	printf("%u sessions, %d duplicate ids\n", tab.count,
	       count_duplicates(&tab));
	for (b = 0; b < NBUCKETS; b++)
		while (tab.bucket[b]) {
			struct session *s = tab.bucket[b];

			tab.bucket[b] = s->next;
			free(s);
		}
	return 0;
}
