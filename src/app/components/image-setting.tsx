import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useRef } from 'react';
import { ProfileAvatar } from './avatar.js';

export interface ImageSettingProps<T> {
  /** The card's heading, e.g. 'Avatar'. */
  title: string;
  /** The name and image of what the picture stands for (the image, when set, replaces the initial). */
  name: string;
  url: string | null;
  description: string;
  inputId: string;
  /** The accessible name of the hidden file input, e.g. 'Avatar image'. */
  inputLabel: string;
  uploadLabel: string;
  clearLabel: string;
  upload: (image: File) => Promise<T>;
  clear: () => Promise<T>;
  /** Gets the record the upload or clear answered with. */
  onUpdated: (updated: T) => void;
}

/** A picture setting: the current image, an upload through a hidden file picker, and a clear. */
export function ImageSetting<T>({
  title,
  name,
  url,
  description,
  inputId,
  inputLabel,
  uploadLabel,
  clearLabel,
  upload,
  clear,
  onUpdated,
}: ImageSettingProps<T>) {
  const file = useRef<HTMLInputElement>(null);
  const uploading = useMutation({ mutationFn: upload, onSuccess: onUpdated });
  const clearing = useMutation({ mutationFn: clear, onSuccess: onUpdated });
  const busy = uploading.isPending || clearing.isPending;

  function pick(files: FileList | null) {
    const image = files?.[0];
    // Images only (spec platform 5); the picker already filters, this guards a forced choice.
    if (image && image.type.startsWith('image/')) uploading.mutate(image);
    if (file.current) file.current.value = '';
  }

  return (
    <Card title={<h2 className="text-xl font-semibold m-0">{title}</h2>}>
      <div className="flex flex-wrap align-items-center gap-4">
        <ProfileAvatar name={name} url={url} size="xlarge" />
        <div className="flex flex-column gap-2 flex-1" style={{ minWidth: '14rem' }}>
          <p className="m-0 text-700">{description}</p>
          <div className="flex gap-2">
            <input
              ref={file}
              id={inputId}
              type="file"
              accept="image/*"
              hidden
              tabIndex={-1}
              aria-label={inputLabel}
              onChange={(event) => pick(event.target.files)}
            />
            <Button
              type="button"
              label={uploadLabel}
              icon="pi pi-upload"
              loading={uploading.isPending}
              disabled={busy}
              onClick={() => file.current?.click()}
            />
            <Button
              type="button"
              label={clearLabel}
              icon="pi pi-times"
              outlined
              loading={clearing.isPending}
              disabled={busy || !url}
              onClick={() => clearing.mutate()}
            />
          </div>
        </div>
      </div>
    </Card>
  );
}
