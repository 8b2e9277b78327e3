// Bug: an unprotected reduction.  A parallel word count splits a text into
// one slice per thread; every worker counts its slice into a local and, at
// the end, adds it to a plain global:
//
//     total_words += words;
//
// The workers finish at about the same time, so two of them can do the
// read-modify-write together and lose one slice's count.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in count_worker / count_worker$
// EXPECT: ^(read|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^(read|read-write) to 0x => ^ count_worker\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*reduction\.c:76$
// EXPECT-FRAME: ^(write|read-write) to 0x => ^ count_worker\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*reduction\.c:76$

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "oneshot.h"

#define NTHREADS 4
#define TEXT_SIZE (256 * 1024)

struct slice {
	pthread_t tid;
	const char *begin;
	const char *end;
};

static unsigned long total_words;
#ifdef FIXED
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

/* Fill @buf with lowercase words separated by single spaces. */
static void make_text(char *buf, size_t size)
{
	unsigned int x = 12345;
	size_t i;

	for (i = 0; i < size; i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (x >> 16) % 6 == 0 ? ' ' : 'a' + (x >> 16) % 26;
	}
}

static unsigned long count_words(const char *p, const char *end)
{
	unsigned long words = 0;
	int in_word = 0;

	for (; p < end; p++) {
		if (isspace((unsigned char)*p))
			in_word = 0;
		else if (!in_word) {
			in_word = 1;
			words++;
		}
	}
	return words;
}

static void *count_worker(void *arg)
{
	struct slice *s = arg;
	unsigned long words = count_words(s->begin, s->end);

#ifdef FIXED
	pthread_mutex_lock(&total_lock);
	total_words += words;
	pthread_mutex_unlock(&total_lock);
#else
	total_words += words;		/* racy read-modify-write */
#endif
	return NULL;
}

int main(void)
{
	struct slice slices[NTHREADS];
	char *text = malloc(TEXT_SIZE);
	size_t per = TEXT_SIZE / NTHREADS;
	int i;

	if (!text)
		return 1;
	make_text(text, TEXT_SIZE);
	for (i = 0; i < NTHREADS; i++) {
		slices[i].begin = text + i * per;
		slices[i].end = text + (i + 1) * per;
		pthread_create(&slices[i].tid, NULL, count_worker, &slices[i]);
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(slices[i].tid, NULL);
	printf("%lu words\n", total_words);
	free(text);
	return 0;
}
