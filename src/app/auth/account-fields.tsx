import { TextField } from '../components/form.js';
import { NewPasswordField } from './auth-form.js';

type AccountField = 'name' | 'handle' | 'password';

/**
 * A new account's name, handle and password, as registering and joining a workspace ask for them: the handle
 * follows the name until typed in (useSlugField), and a handle filled from the name is checked as soon as the name
 * is done. Ids are `{prefix}-name`, `{prefix}-handle` and `{prefix}-password`.
 */
export function AccountFields({
  prefix,
  name,
  handle,
  password,
  form,
  onName,
  onHandle,
  onPassword,
}: {
  prefix: string;
  name: string;
  handle: { value: string; edited: boolean; sourceChanged(): void };
  password: string;
  form: { shown(field: AccountField): string | null; touch(...fields: AccountField[]): void };
  onName(value: string): void;
  onHandle(value: string): void;
  onPassword(value: string): void;
}) {
  return (
    <>
      <TextField
        id={`${prefix}-name`}
        label="Name"
        autoComplete="name"
        value={name}
        onChange={(value) => {
          onName(value);
          handle.sourceChanged();
        }}
        onBlur={() => (handle.edited ? form.touch('name') : form.touch('name', 'handle'))}
        error={form.shown('name')}
      />
      <TextField
        id={`${prefix}-handle`}
        label="Handle"
        autoComplete="username"
        value={handle.value}
        onChange={onHandle}
        onBlur={() => form.touch('handle')}
        error={form.shown('handle')}
      />
      <NewPasswordField id={`${prefix}-password`} value={password} onChange={onPassword} form={form} field="password" />
    </>
  );
}
