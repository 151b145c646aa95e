import { z } from 'zod';

/** The soak's document: every committed write adds its writer's token. */
export const SoakDoc = z.object({ count: z.number().int(), tokens: z.array(z.string()) });
