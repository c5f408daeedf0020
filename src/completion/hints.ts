import type { Argument, Option } from 'commander';

/** Values that are only known at run time. */
export type DynamicValues = 'profiles' | 'plant-ids' | 'plan-files';

const hints = new WeakMap<Option | Argument, DynamicValues>();

/** Mark an option or argument whose values completion looks up at run time. */
export function completeWith<T extends Option | Argument>(target: T, values: DynamicValues): T {
  hints.set(target, values);
  return target;
}

export function dynamicValues(target: Option | Argument): DynamicValues | undefined {
  return hints.get(target);
}
