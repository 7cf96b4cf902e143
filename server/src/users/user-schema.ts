import { Type, type Static } from 'typebox';

export const MembershipSchema = Type.Object({
  plan: Type.Union([Type.Literal('one-time'), Type.Literal('subscription')]),
  status: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const UserSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.Union([Type.String(), Type.Null()]),
  isSubscribed: Type.Boolean(),
  membership: Type.Union([MembershipSchema, Type.Null()]),
});

export const UserResponseSchema = Type.Object({ user: UserSchema });

export type UserView = Static<typeof UserSchema>;
