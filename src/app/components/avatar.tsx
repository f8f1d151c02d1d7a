import { Avatar } from 'primereact/avatar';

/** A picture, or the first letter of the name when there is none. */
export function ProfileAvatar({
  name,
  url,
  size = 'normal',
}: {
  name: string;
  url: string | null | undefined;
  size?: 'normal' | 'large' | 'xlarge';
}) {
  return url ? (
    <Avatar image={url} shape="circle" size={size} aria-label={name} />
  ) : (
    <Avatar
      label={name.charAt(0).toUpperCase() || '?'}
      shape="circle"
      size={size}
      aria-label={name}
      className="beacon-avatar-letter"
    />
  );
}
