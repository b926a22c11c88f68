// Eight threads allocating at once, then glibc's malloc_stats(): how many arenas it made. Output: arena-count.txt
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static pthread_barrier_t b;
static void *work(void *x) { pthread_barrier_wait(&b); void *keep[64] = {0}; for (int i = 0; i < 2000000; i++) { int k = i % 64; free(keep[k]); keep[k] = malloc(64 + i % 512); } return 0; }
int main(void) { pthread_t t[8]; pthread_barrier_init(&b, 0, 8); for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, work, 0); for (int i = 0; i < 8; i++) pthread_join(t[i], 0); malloc_stats(); return 0; }
