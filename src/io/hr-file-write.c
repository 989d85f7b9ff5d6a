/* hr-file-write.c: saving a file so that a failure leaves the old one
 *
 * Copyright 2026 The Headroom developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Headroom writes (scenarios, PNG charts and reports, CSV)
 * comes through here.  A regular file is replaced atomically: the data
 * goes to a temporary file beside it, is synced, takes the old file's
 * mode (and owner, where we may), and is renamed over it.  What a rename
 * would break is handled on purpose rather than by accident:
 *
 * - a symbolic link is followed, and its target is written, as editors do;
 * - a file with other hard links is rewritten in place, after the space
 *   for the new contents is reserved, so every name keeps seeing it;
 * - a FIFO, a device or a folder is refused: `--png /dev/full` once
 *   replaced /dev/full with a PNG.
 */

#include "hr-file-write.h"
#include "hr-error.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many links in a chain are followed, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40

static gboolean
fail_errno (GError    **error,
            const char *path,
            const char *what,
            int         saved)
{
  g_set_error (error, HR_ERROR, HR_ERROR_IO, _("%s: could not save (%s: %s); the previous "
               "file is unchanged"), path, what, g_strerror (saved));
  return FALSE;
}

static gboolean
write_all (int         fd,
           const char *data,
           gsize       length)
{
  while (length > 0)
    {
      gssize n = write (fd, data, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* PATH with every symbolic link in its last component followed. */
static char *
resolve_links (const char  *path,
               GError     **error)
{
  g_autofree char *current = g_strdup (path);

  for (int i = 0; i < MAX_LINKS; i++)
    {
      g_autofree char *target = NULL;
      g_autofree char *dir = NULL;
      GStatBuf st;

      if (g_lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&current);
      target = g_file_read_link (current, NULL);
      if (target == NULL)
        return g_steal_pointer (&current);
      if (g_path_is_absolute (target))
        {
          g_free (current);
          current = g_steal_pointer (&target);
          continue;
        }
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_build_filename (dir, target, NULL);
    }
  g_set_error (error, HR_ERROR, HR_ERROR_IO, _("%s: could not save (more than %d symbolic "
               "links in a row); the previous file is unchanged"), path, MAX_LINKS);
  return NULL;
}

/* A file with several names: rewritten where it is.  fallocate reserves
 * the space first, so a full disk fails before a byte is changed. */
static gboolean
write_in_place (const char  *path,
                const char  *data,
                gsize        length,
                GError     **error)
{
  int fd = g_open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
  int err;

  if (fd < 0)
    return fail_errno (error, path, "open", errno);
  err = length > 0 ? posix_fallocate (fd, 0, (off_t) length) : 0;
  if (err != 0 && err != EOPNOTSUPP && err != EINVAL)
    {
      close (fd);
      return fail_errno (error, path, "reserving space", err);
    }
  if (!write_all (fd, data, length) || ftruncate (fd, (off_t) length) != 0 || fsync (fd) != 0)
    {
      int saved = errno;

      close (fd);
      g_set_error (error, HR_ERROR, HR_ERROR_IO, _("%s: writing failed (%s) after the space "
                   "was reserved; the file may be incomplete"), path, g_strerror (saved));
      return FALSE;
    }
  close (fd);
  return TRUE;
}

static gboolean
replace_atomically (const char  *path,
                    const char  *data,
                    gsize        length,
                    GStatBuf    *old,
                    GError     **error)
{
  g_autofree char *tmp = g_strdup_printf ("%s.XXXXXX", path);
  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  int saved;

  if (fd < 0)
    return fail_errno (error, path, "creating a temporary file beside it", errno);
  if (!write_all (fd, data, length) || fsync (fd) != 0)
    goto fail;
  /* The new file takes the old one's mode (0600 stays 0600) and, where
   * we may, its owner; a new file gets 0666 less the umask. */
  if (old != NULL)
    {
      if (fchown (fd, old->st_uid, old->st_gid) != 0)
        {
          /* Only root may give a file away: an ordinary user keeps it. */
        }
      if (fchmod (fd, old->st_mode & 07777) != 0)
        goto fail;
    }
  else
    {
      mode_t mask = umask (0);

      umask (mask);
      if (fchmod (fd, 0666 & ~mask) != 0)
        goto fail;
    }
  if (close (fd) != 0)
    {
      fd = -1;
      goto fail;
    }
  fd = -1;
  if (g_rename (tmp, path) != 0)
    goto fail;
  return TRUE;

fail:
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_unlink (tmp);
  return fail_errno (error, path, "writing", saved);
}

gboolean
hr_write_file_atomic (const char  *path,
                      const char  *data,
                      gsize        length,
                      GError     **error)
{
  g_autofree char *target = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL && data != NULL, FALSE);

  target = resolve_links (path, error);
  if (target == NULL)
    return FALSE;
  if (g_stat (target, &st) != 0)
    {
      if (errno != ENOENT)
        return fail_errno (error, path, "stat", errno);
      return replace_atomically (target, data, length, NULL, error);
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, HR_ERROR, HR_ERROR_IO, _("%s: could not save: it is %s, not a regular "
                   "file; allowed: a regular file or a new file name"), path,
                   S_ISDIR (st.st_mode) ? _("a folder") : S_ISFIFO (st.st_mode) ? _("a named pipe")
                   : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? _("a device") : _("a special file"));
      return FALSE;
    }
  if (st.st_nlink > 1)
    return write_in_place (target, data, length, error);
  return replace_atomically (target, data, length, &st, error);
}

/* Whether A and B name the same existing file (links and ".." included). */
gboolean
hr_file_same (const char *a,
              const char *b)
{
  GStatBuf sa, sb;

  if (a == NULL || b == NULL || g_stat (a, &sa) != 0 || g_stat (b, &sb) != 0)
    return FALSE;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
