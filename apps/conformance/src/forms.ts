import { Field } from '@toolsets/core';

/** The questions the fixtures ask, shared by the task and round-trip fixtures. */
export class NameForm {
  @Field({ description: 'Your name' })
  name!: string;
}

export class ColorForm {
  @Field({ description: 'Your favourite colour' })
  color!: string;
}
