/* observation.c: observations and legal masks (gateau/observation.h). */
#include <assert.h>
#include <string.h>

#include "core/engine.h"
#include "gateau/observation.h"

/* The size, counted once per setup by writing an initial state's
 * observation nowhere (setup.c calls this when the setup is made). */
int observation_count(const gateau_setup *setup)
{
    if (!setup->game->observe) return 0;
    gateau_state *state = gateau_state_new(setup);
    observation_writer counter = {.out = NULL, .count = 0};
    setup->game->observe(state, GATEAU_OBSERVER, &counter);
    gateau_state_free(state);
    return counter.count;
}

int gateau_observation_size(const gateau_setup *setup) { return setup->observation_size; }

bool gateau_state_observation(const gateau_state *state, int seat, float *out)
{
    const gateau_setup *setup = state->setup;
    if (seat != GATEAU_OBSERVER && (seat < 0 || seat >= setup->players)) return false;
    if (!setup->game->observe) return true;
    observation_writer writer = {.out = out, .count = 0};
    setup->game->observe(state, seat, &writer);
    /* Fixed size: a field written only in some states would shift the
     * rest (the property test checks it in every build). */
    assert(writer.count == setup->observation_size);
    return true;
}

int gateau_action_space_size(const gateau_setup *setup) { return setup->game->action_space; }

int gateau_state_legal_mask(const gateau_state *state, int seat, uint8_t *mask)
{
    memset(mask, 0, (size_t)state->setup->game->action_space);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    for (int i = 0; i < count; i++) mask[actions[i]] = 1;
    return count;
}
