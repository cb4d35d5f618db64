/* config.h.  Generated from config.h.in by configure.  */
/* config.h.in.  Generated from configure.ac by autoheader.  */

/* C compiler */
#define GK_CC_VERSION "gcc (Debian 12.2.0-14+deb12u1) 12.2.0"

/* configure's arguments */
#define GK_CONFIGURE_ARGS " '--with-cuda-arch=90'"

/* GPU architectures built */
#define GK_CUDA_ARCHS "sm_90 + PTX compute_90 (--with-cuda-arch)"

/* the toolkit's headers */
#define GK_CUDA_INCDIR "/usr/local/cuda/include"

/* where the toolkit's libraries are */
#define GK_CUDA_LIBDIR "/usr/local/cuda/lib64"

/* CUDA toolkit version */
#define GK_CUDA_VERSION_STR "13.0"

/* Define if CUDA support is built. */
#define GK_HAVE_CUDA 1

/* Define if hwloc is used. */
#define GK_HAVE_HWLOC 1

/* Define if NVRTC headers were found. */
#define GK_HAVE_NVRTC 1

/* Define if OpenMP is enabled. */
#define GK_HAVE_OPENMP 1

/* NVRTC library */
#define GK_NVRTC_SONAME "libnvrtc.so.13"

/* Define to 1 if you have the <dlfcn.h> header file. */
#define HAVE_DLFCN_H 1

/* Define to 1 if you have the <inttypes.h> header file. */
#define HAVE_INTTYPES_H 1

/* Define to 1 if you have the <stdint.h> header file. */
#define HAVE_STDINT_H 1

/* Define to 1 if you have the <stdio.h> header file. */
#define HAVE_STDIO_H 1

/* Define to 1 if you have the <stdlib.h> header file. */
#define HAVE_STDLIB_H 1

/* Define to 1 if you have the <strings.h> header file. */
#define HAVE_STRINGS_H 1

/* Define to 1 if you have the <string.h> header file. */
#define HAVE_STRING_H 1

/* Define to 1 if you have the <sys/stat.h> header file. */
#define HAVE_SYS_STAT_H 1

/* Define to 1 if you have the <sys/types.h> header file. */
#define HAVE_SYS_TYPES_H 1

/* Define to 1 if you have the <unistd.h> header file. */
#define HAVE_UNISTD_H 1

/* Define to the sub-directory where libtool stores uninstalled libraries. */
#define LT_OBJDIR ".libs/"

/* Name of package */
#define PACKAGE "gk"

/* Define to the address where bug reports for this package should be sent. */
#define PACKAGE_BUGREPORT "gk-bugs@example.org"

/* Define to the full name of this package. */
#define PACKAGE_NAME "gk"

/* Define to the full name and version of this package. */
#define PACKAGE_STRING "gk 0.1.0"

/* Define to the one symbol short name of this package. */
#define PACKAGE_TARNAME "gk"

/* Define to the home page for this package. */
#define PACKAGE_URL ""

/* Define to the version of this package. */
#define PACKAGE_VERSION "0.1.0"

/* Define to 1 if all of the C90 standard headers exist (not just the ones
   required in a freestanding environment). This macro is provided for
   backward compatibility; new code need not use it. */
#define STDC_HEADERS 1

/* Version number of package */
#define VERSION "0.1.0"
