/*
 * sensor_calibration_publish.c - calibration hand-off in a data logger.
 *
 * The calibration thread averages a burst of raw samples, stores the
 * offset, then raises `calib_ready` with a relaxed atomic store.  The
 * display thread polls the flag (also relaxed) and then reads the offset.
 * Relaxed operations give no happens-before, so the plain offset is raced.
 *
 * Racing pair:
 *   W :45 calib.offset = sum / n in calibrate_main() /
 *   R :56 off = calib.offset in display_main()
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

struct calibration {
    double offset;
};

static struct calibration calib;
static atomic_int calib_ready;

static const double raw_samples[8] = { 0.52, 0.49, 0.51, 0.50, 0.48, 0.50, 0.51, 0.49 };

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static void *calibrate_main(void *arg)
{
    (void)arg;
    double sum = 0;
    int n = 0;

    for (int i = 0; i < 8; i++) {
        sleep_us(100);                   /* wait for the ADC conversion */
        sum += raw_samples[i];
        n++;
    }
    calib.offset = sum / n;
    atomic_store_explicit(&calib_ready, 1, memory_order_relaxed);
    return NULL;
}

static void *display_main(void *arg)
{
    double *shown = arg;

    while (!atomic_load_explicit(&calib_ready, memory_order_relaxed))
        sleep_us(200);
    double off = calib.offset;
    *shown = 3.30 - off;                 /* first corrected reading */
    return NULL;
}

int main(void)
{
    pthread_t cal, disp;
    double shown = 0;

    if (pthread_create(&disp, NULL, display_main, &shown) != 0)
        return 1;
    if (pthread_create(&cal, NULL, calibrate_main, NULL) != 0)
        return 1;
    pthread_join(cal, NULL);
    pthread_join(disp, NULL);
    printf("offset %.3f V, first reading %.3f V\n", calib.offset, shown);
    return 0;
}
