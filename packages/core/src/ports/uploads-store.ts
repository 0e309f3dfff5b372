/** Storage port of project Markdown uploads (reference `Upload` of `FileUploader`): the record of each file kept in the project's uploads folder. */

/** A project upload: the file lives at `<repository>/forgekit-uploads/<secret>/<filename>`. */
export interface ProjectUpload {
  id: number;
  projectId: number;
  /** 32 lowercase hex digits. */
  secret: string;
  filename: string;
  size: number;
  /** Who uploaded it; null once that user is gone. */
  uploaderId: number | null;
  createdAt: Date;
}

/** The store's project uploads. */
export interface UploadRepository {
  /** Records an upload. */
  create(input: Omit<ProjectUpload, "id">): Promise<ProjectUpload>;
  /** The project's uploads, newest first (then id descending). */
  list(projectId: number, page: import("./pagination.js").OffsetPageRequest): Promise<import("./pagination.js").OffsetPageResult<ProjectUpload>>;
  /** The project's upload `id`, or null. */
  find(projectId: number, id: number): Promise<ProjectUpload | null>;
  /** The project's upload with this secret and file name, or null. */
  findByPath(projectId: number, secret: string, filename: string): Promise<ProjectUpload | null>;
  /** Deletes the record; false when it was gone. */
  remove(projectId: number, id: number): Promise<boolean>;
}
