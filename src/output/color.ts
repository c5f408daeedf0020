import type { ChalkInstance, ColorSupportLevel } from 'chalk';

/** A chalk instance for one stream: colour only where the io object allows it. */
export async function palette(enabled: boolean): Promise<ChalkInstance> {
  const { Chalk, supportsColor } = await import('../vendor/chalk.js');
  const detected: ColorSupportLevel = supportsColor ? supportsColor.level : 0;
  return new Chalk({ level: enabled ? (Math.max(1, detected) as ColorSupportLevel) : 0 });
}
