/*
 * commit_queue.c: group commit, one mechanism for both backends
 * (backend.h).  A commit costs about as much for one move as for many, so
 * the moves that arrive while one commit runs go together in the next.
 */
#include "store/backend.h"

void commit_queue_init(commit_queue *queue)
{
    pthread_mutex_init(&queue->lock, NULL);
    pthread_cond_init(&queue->committed, NULL);
    queue->head = queue->tail = NULL;
    queue->committing = false;
}

void commit_queue_destroy(commit_queue *queue)
{
    pthread_mutex_destroy(&queue->lock);
    pthread_cond_destroy(&queue->committed);
}

/*
 * The caller's move joins the queue.  If nobody is committing, the
 * caller commits the whole queue (its move and whatever came meanwhile);
 * otherwise it waits, and the moves that queued during that commit go
 * together in the next.  Each returns once its own batch is committed.
 */
void commit_queue_wait(commit_queue *queue, pending_move *mine, commit_function commit,
                       void *backend)
{
    pthread_mutex_lock(&queue->lock);
    if (queue->tail) queue->tail->next = mine;
    else queue->head = mine;
    queue->tail = mine;
    while (!mine->done) {
        if (queue->committing) {
            pthread_cond_wait(&queue->committed, &queue->lock);
            continue;
        }
        pending_move *batch = queue->head;
        queue->head = queue->tail = NULL;
        queue->committing = true;
        pthread_mutex_unlock(&queue->lock);
        commit(backend, batch);
        pthread_mutex_lock(&queue->lock);
        for (pending_move *item = batch, *next; item; item = next) {
            next = item->next; /* (item may return, and go, once done is set) */
            item->done = true;
        }
        queue->committing = false;
        pthread_cond_broadcast(&queue->committed);
    }
    pthread_mutex_unlock(&queue->lock);
}
